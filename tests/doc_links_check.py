#!/usr/bin/python3
# The link check of the documentation: every relative link and every #anchor in README.md
# and docs/*.md must resolve (a file or directory of the tree; an anchor one of the target
# Markdown file's headings, slugged as GitHub does). Prints each broken link as
# "FILE:LINE: TARGET (why)" and exits 1 when there is one. Run from anywhere.
import os
import re
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r'\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
CODE_SPAN = re.compile(r'(`+)(?:(?!\1).)+?\1')


def github_slug(heading):
    """GitHub's anchor for a heading: lowercase, inline markup and punctuation dropped
    (letters, digits, '_', '-' and spaces kept), each space a hyphen."""
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', heading)  # a link's text only
    text = re.sub(r'<[^>]+>', '', text).strip().lower()
    kept = ''.join(c for c in text
                   if c in ' -_' or unicodedata.category(c)[0] in 'LN')
    return kept.replace(' ', '-')


def markdown_lines(path):
    """(line number, text) of the lines outside fenced code blocks."""
    fence = None
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            marker = re.match(r'^\s*(```+|~~~+)', line)
            if marker:
                if fence is None:
                    fence = marker.group(1)[0] * 3
                elif marker.group(1).startswith(fence):
                    fence = None
                continue
            if fence is None:
                yield number, line


_anchors = {}


def anchors_of(path):
    """The anchors of a Markdown file's headings (duplicates numbered -1, -2, ...), and
    the names of its explicit <a name/id> anchors."""
    if path not in _anchors:
        found, counts = set(), {}
        for _, line in markdown_lines(path):
            heading = re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
            if heading:
                slug = github_slug(heading.group(1))
                n = counts.get(slug, 0)
                counts[slug] = n + 1
                found.add(slug if n == 0 else f'{slug}-{n}')
            found.update(re.findall(r'<a\s+(?:name|id)="([^"]+)"', line))
        _anchors[path] = found
    return _anchors[path]


def broken_links(path):
    for number, line in markdown_lines(path):
        for target in LINK.findall(CODE_SPAN.sub('', line)):
            if re.match(r'^[a-zA-Z][a-zA-Z0-9+.-]*:', target):  # https:, mailto: ...
                continue
            file_part, _, anchor = target.partition('#')
            resolved = path if not file_part else os.path.normpath(
                os.path.join(os.path.dirname(path), file_part))
            where = f'{os.path.relpath(path, ROOT)}:{number}: {target}'
            if not os.path.exists(resolved):
                yield f'{where} (no such file)'
            elif not os.path.realpath(resolved).startswith(ROOT + os.sep):
                yield f'{where} (outside the repository)'
            elif anchor and not resolved.endswith('.md'):
                yield f'{where} (an anchor into a file that is not Markdown)'
            elif anchor and anchor not in anchors_of(resolved):
                yield f'{where} (no heading with the anchor #{anchor})'


def main():
    docs = os.path.join(ROOT, 'docs')
    files = [os.path.join(ROOT, 'README.md')] + sorted(
        os.path.join(docs, name) for name in os.listdir(docs) if name.endswith('.md'))
    broken = [problem for path in files for problem in broken_links(path)]
    for problem in broken:
        print(problem)
    return 1 if broken else 0


if __name__ == '__main__':
    sys.exit(main())
