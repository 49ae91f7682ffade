#!/usr/bin/env python3
"""Rewrites every generated parameter table in docs/models/*.md from the declarations:
each block between "<!-- generated: adhocsim schema --table NAME -->" and
"<!-- end generated -->" becomes `adhocsim schema --table NAME`'s output.
ParameterDeclarationTests fails when a committed table is stale; this script is the fix.
Usage: scripts/refresh-model-tables.py [path/to/adhocsim]   (default .build/debug/adhocsim)"""
import pathlib, re, subprocess, sys

root = pathlib.Path(__file__).resolve().parent.parent
binary = sys.argv[1] if len(sys.argv) > 1 else str(root / ".build/debug/adhocsim")
pattern = re.compile(r"<!-- generated: adhocsim schema --table (\S+) -->\n.*?<!-- end generated -->", re.S)

def table(match):
    name = match.group(1)
    out = subprocess.run([binary, "schema", "--table", name], capture_output=True, text=True, check=True).stdout
    return f"<!-- generated: adhocsim schema --table {name} -->\n{out}<!-- end generated -->"

for page in sorted((root / "docs/models").glob("*.md")):
    text = page.read_text(encoding="utf-8")
    new = pattern.sub(table, text)
    if new != text:
        page.write_text(new, encoding="utf-8")
        print(f"updated {page.relative_to(root)}")
