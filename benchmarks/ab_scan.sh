# Sourced by the results' run scripts (bash).
#
# step_dir NAME: a step's files go to a scratch folder, $OUT from then on, packed into
# ${OUT:-benchmarks/results/local}/NAME.tgz when the script exits, cut short or not (the
# device returns at most 8 files); the environment the steps share; the card's name in
# $OUT/gpu.txt.
step_dir() {
  FINAL=${OUT:-benchmarks/results/local}; mkdir -p "$FINAL"; FINAL=$(realpath "$FINAL")
  OUT=$(mktemp -d); trap "tar -czf '$FINAL/$1.tgz' -C '$OUT' ." EXIT
  export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
  nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
}

# ab NAME OLD NEW CAP SCAN_ARGS... runs
# shape_scan.py's calls (from benchmarks/) once with each of two --variant specs ("": the
# source as it is), each in its own process capped at CAP seconds, into
# $OUT/NAME_{old,new}.{json,txt}, then compares them call by call (scan_compare.py).
ab() {
  local name=$1 old=$2 new=$3 cap=$4 side spec; shift 4
  for side in old new; do
    spec=$old; [[ $side == new ]] && spec=$new
    timeout "$cap" python3 shape_scan.py --no-compare "$@" ${spec:+--variant "$spec"} \
      --json "$OUT/${name}_$side.json" > "$OUT/${name}_$side.txt" 2>&1
    echo "$name $side rc $?"; grep -E "calls:" "$OUT/${name}_$side.txt"
  done
  python3 scan_compare.py "$OUT/${name}_old.json" "$OUT/${name}_new.json" --worst 10
}

# ab_calls NAME FAMILY FILE CAP VARIANT... runs ab_variant.py (from benchmarks/) on the
# calls of FILE (one NAME=N,C_in,C_out,K,L,S,P,D[,G] per line), the shipped source against
# each VARIANT, medians of 3 rounds, capped at CAP seconds, into $OUT/NAME.txt.
ab_calls() {
  local name=$1 family=$2 file=$3 cap=$4 calls rc; shift 4
  mapfile -t calls < "$file"
  (cd benchmarks && timeout "$cap" python3 ab_variant.py "$family" "${calls[@]/#/--call=}" \
     --rounds 3 "${@/#/--variant=}" > "$OUT/$name.txt" 2>&1); rc=$?
  echo "$name rc $rc"; grep -E "^\S|median|largest" "$OUT/$name.txt" | cut -c1-170
}
