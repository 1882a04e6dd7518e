#!/usr/bin/env python3
"""Every link of the built guide, of README.md and of the dashboard resolves.

    check_links.py BOOK_DIR REPO_DIR

In the built HTML (BOOK_DIR, mdBook's output), each relative href or src must name a file of
the book, and its #fragment an id in that file. In README.md, each relative link must name a
file of the repository; a link into the guide's sources (docs/src/PAGE.md#anchor) must also
name an anchor the built page has, and a link to one of README's own headings must match one.
The dashboard's links into the guide (`guide('PAGE.md#anchor', ...)` in src/admin/ui/*.js) must
resolve in the book. With --served URL (a running sqslite), each page sqslite serves from the
copy compiled into it (/_sqslite/guide/PAGE.md) must have the headings' ids the book has, so a
link written for one lands on the same heading in the other. External links (http:, https:, mailto:) are not followed: no test here
reaches beyond loopback. Prints one line per broken link and exits 1 if there is any.
"""
import html.parser
import pathlib
import re
import sys
import urllib.parse

# Pages mdBook makes from all the others (print.html repeats every page with its links
# rewritten), or that it serves only as fallbacks.
SKIP = {"print.html", "404.html", "toc.html"}


class Page(html.parser.HTMLParser):
    """The ids a page defines and the links it makes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        for key in ("href", "src"):
            if attrs.get(key) is not None and tag in ("a", "img", "link", "script"):
                self.links.append((self.getpos()[0], attrs[key]))


def external(link):
    return re.match(r"^[a-z][a-z0-9+.-]*:", link) is not None or link.startswith("//")


def parse(path, cache={}):
    if path not in cache:
        page = Page()
        page.feed(path.read_text(encoding="utf-8"))
        cache[path] = page
    return cache[path]


def check_book(book):
    broken = []
    for path in sorted(book.rglob("*.html")):
        if path.name in SKIP and path.parent == book:
            continue
        page = parse(path)
        for line, link in page.links:
            if external(link) or link == "":
                continue
            target, _, fragment = link.partition("#")
            target = urllib.parse.unquote(target)
            dest = (path.parent / target).resolve() if target else path
            where = f"{path.relative_to(book)}:{line}"
            if not dest.exists():
                broken.append(f"{where}: {link}: no such file in the book")
            elif dest.is_dir():
                if not (dest / "index.html").exists():
                    broken.append(f"{where}: {link}: a directory without index.html")
            elif fragment and dest.suffix == ".html" and fragment not in parse(dest).ids:
                broken.append(f"{where}: {link}: no anchor #{fragment} in {dest.name}")
    return broken


def github_slug(heading):
    """The anchor GitHub gives a README heading."""
    text = re.sub(r"`|\*|_(?=\w)|(?<=\w)_", "", heading.strip()).lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def markdown_links(text):
    """(line, target) of every inline link outside fenced code."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        line = re.sub(r"`[^`]*`", "", line)
        for match in re.finditer(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", line):
            yield number, match.group(1)


def check_readme(repo, book):
    broken = []
    readme = repo / "README.md"
    if not readme.exists():
        return broken
    text = readme.read_text(encoding="utf-8")
    headings, fenced = set(), False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            headings.add(github_slug(line.lstrip("#")))
    for line, link in markdown_links(text):
        if external(link):
            continue
        target, _, fragment = link.partition("#")
        where = f"README.md:{line}"
        if not target:
            if fragment not in headings:
                broken.append(f"{where}: {link}: no such heading in README.md")
            continue
        dest = repo / urllib.parse.unquote(target)
        if not dest.exists():
            broken.append(f"{where}: {link}: no such file in the repository")
            continue
        src = repo / "docs" / "src"
        if fragment and dest.suffix == ".md" and src in dest.resolve().parents:
            built = book / dest.resolve().relative_to(src.resolve()).with_suffix(".html")
            if not built.exists() or fragment not in parse(built).ids:
                broken.append(f"{where}: {link}: no anchor #{fragment} in the built {built.name}")
    return broken


def check_dashboard(repo, book):
    broken = []
    for script in sorted((repo / "src" / "admin" / "ui").glob("*.js")):
        for number, line in enumerate(script.read_text(encoding="utf-8").split("\n"), 1):
            if line.lstrip().startswith("//"):
                continue
            for match in re.finditer(r"\bguide\(\s*['\"]([^'\"]+)['\"]", line):
                link = match.group(1)
                target, _, fragment = link.partition("#")
                dest = book / re.sub(r"\.md$", ".html", target)
                where = f"{script.relative_to(repo)}:{number}"
                if not dest.exists():
                    broken.append(f"{where}: {link}: no such page in the guide")
                elif fragment and fragment not in parse(dest).ids:
                    broken.append(f"{where}: {link}: no anchor #{fragment} in {target}")
    return broken


def heading_ids(html_text):
    return set(re.findall(r"<h[1-6] id=\"([^\"]*)\"", html_text))


def check_served(base, book):
    """The ids of each page sqslite serves are the ids of the same page of the book."""
    import urllib.request

    broken = []
    for path in sorted(book.rglob("*.html")):
        name = path.relative_to(book).as_posix()
        if name in SKIP or name == "index.html":
            continue
        source = name[: -len(".html")] + ".md"
        url = f"{base}/_sqslite/guide/{source}"
        try:
            with urllib.request.urlopen(url, timeout=10) as answer:
                served = heading_ids(answer.read().decode("utf-8"))
        except OSError as error:
            broken.append(f"{url}: not served: {error}")
            continue
        built = heading_ids(path.read_text(encoding="utf-8"))
        if served != built:
            broken.append(f"{url}: ids differ from the book's: only served {sorted(served - built)}, only built {sorted(built - served)}")
    return broken


def main():
    args = sys.argv[1:]
    served = None
    if args[0] == "--served":
        served, args = args[1], args[2:]
    book, repo = pathlib.Path(args[0]).resolve(), pathlib.Path(args[1]).resolve()
    broken = check_book(book) + check_readme(repo, book) + check_dashboard(repo, book)
    if served:
        broken += check_served(served, book)
    for line in broken:
        print(f"broken link: {line}")
    pages = sum(1 for p in book.rglob("*.html") if p.name not in SKIP)
    print(f"links: {pages} pages, README.md and the dashboard checked; {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
