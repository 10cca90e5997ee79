#!/usr/bin/env python3
"""rule-db.py DIR OUT: a compile_commands.json for the rule cases in DIR."""
import json
import os
import sys

src, out = os.path.abspath(sys.argv[1]), sys.argv[2]
files = sorted(f for f in os.listdir(src) if f.endswith(".c"))
with open(out, "w") as f:
    json.dump([{"directory": src, "file": c,
                "arguments": ["clang", "-c", c, "-o", "/dev/null"]} for c in files], f, indent=1)
