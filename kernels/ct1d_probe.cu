// Not a convolution: an empty kernel that is never launched, only described to the driver
// (cupyconv/_gpu.py, device_cluster_slots): how many thread-block clusters of a given size,
// one block per SM, the device holds at once. A cluster's blocks share one GPC, so a size
// that does not divide a GPC's SM count leaves SMs idle, and dispatch (_dispatch.gemm_split)
// needs the real count rather than SMs / size.
__global__ void ct1d_cluster_probe() {}
