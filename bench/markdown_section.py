"""Replaces one marked section of a Markdown report (or appends it), so that each benchmark
script can rewrite its own part of BENCHMARKS.md and leave the others as they are."""
import os


def replace_section(path, name, section):
    """`section` must start with `<!-- name -->` and end with `<!-- /name -->` and a newline."""
    begin_marker, end_marker = f"<!-- {name} -->", f"<!-- /{name} -->"
    text = open(path).read() if os.path.exists(path) else ""
    begin, end = text.find(begin_marker), text.find(end_marker)
    if begin >= 0 and end > begin:
        text = text[:begin] + section + text[end + len(end_marker + "\n"):]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(path, "w") as f:
        f.write(text)
