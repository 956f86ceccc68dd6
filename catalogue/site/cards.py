"""The site's social-preview cards as Outputs: one per venue and year, which its papers' pages name
(og:image, twitter:image), and one for the site, which the home page names. Only with a base URL:
only a shared link shows a preview, and only an absolute URL can name it."""

from __future__ import annotations

import functools
from urllib.parse import urlsplit

from catalogue import routes
from catalogue.config import SiteConfig
from catalogue.i18n.strings import Strings
from catalogue.publish.writer import Output
from catalogue.site.share_image import render_card_png
from catalogue.site.views import PaperView
from catalogue.system.cache import code_version, digest


def plan_cards(venues: list[tuple[str, str, tuple[PaperView, ...]]], config: SiteConfig, strings: Strings) -> list[Output]:
    """A card per venue and year ((slug, label, papers), as venue_groups gives them) and the site's.
    A card's key is its text and the drawing code alone, so it is made again only when its text changes."""
    if not config.base_url:
        return []
    t, papers = strings.text, sum(len(members) for _, _, members in venues)
    address = urlsplit(config.base_url)
    cards = [(routes.SITE_PREVIEW, config.title, f"{t('count.papers', papers)} · {t('count.venues', len(venues))}",
              (address.netloc + address.path).rstrip("/"))]
    cards += [(routes.venue_preview(slug), label, t("count.papers", len(members)), config.title)
              for slug, label, members in venues]
    drawing = code_version(render_card_png.__module__)
    return [Output(path, digest(drawing, heading, detail, footer),
                   functools.partial(render_card_png, heading=heading, detail=detail, footer=footer))
            for path, heading, detail, footer in cards]
