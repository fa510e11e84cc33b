# Sourced by the results' run scripts (bash): ab NAME OLD NEW CAP SCAN_ARGS... runs
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
