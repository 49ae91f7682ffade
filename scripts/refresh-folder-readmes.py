#!/usr/bin/env python3
"""Rewrites the "## Files" list of every source folder's README.md (Sources/*/*/README.md):
one line per Swift file of the folder, with the first sentence of its first doc comment.
The text above the list is the folder's own and is kept. FolderReadmeTests fails when a
folder's list and its files differ; this script is the fix."""
import pathlib, re

root = pathlib.Path(__file__).resolve().parent.parent

def first_sentence(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    block = []
    # A file-level summary ("// ..." lines at the top) says what the file is; else the first
    # doc comment ("/// ...") does.
    for line in lines:
        if line.startswith("// ") and not line.startswith("///"):
            block.append(line[3:].strip())
        else:
            break
    if not block:
        for line in lines:
            s = line.strip()
            if s.startswith("///"):
                block.append(s[3:].strip())
            elif block:
                break
    text = " ".join(block)
    # The first sentence: up to the first ". " outside backticks.
    ticks = 0
    for i, c in enumerate(text):
        if c == "`":
            ticks ^= 1
        elif c == "." and ticks == 0 and (i + 1 == len(text) or text[i + 1] == " "):
            return text[: i + 1]
    return text

for readme in sorted(root.glob("Sources/*/*/README.md")):
    folder = readme.parent
    text = readme.read_text(encoding="utf-8")
    head = text.split("\n## Files\n")[0].rstrip("\n")
    files = sorted(p for p in folder.glob("*.swift"))
    listing = "\n".join(f"- `{p.name}`: {first_sentence(p)}" for p in files)
    new = f"{head}\n\n## Files\n\n{listing}\n"
    if new != text:
        readme.write_text(new, encoding="utf-8")
        print(f"updated {readme.relative_to(root)}")
