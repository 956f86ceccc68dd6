"""Screenshots of the built site for a reader's eye: desktop and phone, light and dark.

    python scripts/screenshots.py [--site site] [--out screenshots] [PAGE ...]

Uses Debian's Chromium (/usr/bin/chromium) through Playwright; pages open from file://.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", type=Path, default=Path("site"))
    parser.add_argument("--out", type=Path, default=Path("screenshots"))
    parser.add_argument("--full-page", action="store_true")
    parser.add_argument("pages", nargs="*", default=["index.html"])
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for page_path in args.pages:
            for device, viewport in VIEWPORTS.items():
                for scheme in ("light", "dark"):
                    page = browser.new_page(viewport=viewport, color_scheme=scheme)
                    page.goto((args.site / page_path).resolve().as_uri())
                    name = page_path.replace("/", "_").removesuffix(".html")
                    target = args.out / f"{name}-{device}-{scheme}.png"
                    page.screenshot(path=str(target), full_page=args.full_page)
                    page.close()
                    print(target)
        browser.close()


if __name__ == "__main__":
    main()
