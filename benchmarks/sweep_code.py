"""The code behind each sweep call, for comparing two trees without a GPU: every sweep call's
plan (H200 and H100 rules, sm_90) and a hash of NVRTC's SASS of its instance (addresses
and kernel names left out). Run it in each tree and compare the two JSON files.

    NVRTC_LIB=.../libnvrtc.so.13 NVDISASM=.../nvdisasm \\
        python benchmarks/sweep_code.py OUT.json        (a tree's root; PYTHONPATH=.:benchmarks)
    python benchmarks/sweep_code.py --compare OLD.json NEW.json

Session 61 used it to ask whether results/h200/ (session 48's sweep) still describes the
code: the plans agree, the SASS of 11 calls does not.
"""
import hashlib
import json
import sys


def snapshot(path):
    from cupyconv import _dispatch
    from cupyconv.bench import SWEEP, config_params
    from nvrtc_sass import instance_sass, instructions
    out, sass = {}, {}
    for card in ("", "h100"):
        for c in SWEEP:
            pl = _dispatch.plan(config_params(c), c.dtype, None, 90, card)
            key = pl.key
            if key not in sass:
                lines = instructions(instance_sass(key, 90))
                sass[key] = hashlib.sha1("\n".join(lines).encode()).hexdigest()[:12]
            out[f"{card or 'h200'}/{c.name}"] = dict(plan=repr(pl), expr=key.name_expression(),
                                                     sass=sass[key])
    with open(path, "w") as f:
        json.dump(out, f, indent=1)


def compare(old_path, new_path):
    old, new = (json.load(open(p)) for p in (old_path, new_path))
    for name in old:
        a, b = old[name], new.get(name)
        if b is None:
            print(f"{name}: missing in {new_path}")
        elif a["sass"] != b["sass"] or a["expr"] != b["expr"]:
            print(f"{name}: {a['expr']} -> {b['expr']}, SASS {'same' if a['sass'] == b['sass'] else 'differs'}")
        elif a["plan"] != b["plan"]:
            print(f"{name}: plan repr differs (same instance and SASS)")
    same = sum(old[n] == new.get(n) for n in old)
    print(f"{len(old)} calls: {same} identical in plan, instance and SASS")


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        snapshot(sys.argv[1])
