"""Catalogue + config -> every file of the site as an Output: its path, a digest of its inputs, and
how to make it, in batches (plan_site). Nothing here writes the site (catalogue/publish does); the
cache keeps converted text and the costly whole-catalogue results (related papers, the map) between
builds."""

from __future__ import annotations

import functools
from dataclasses import replace

from jinja2 import Environment

from catalogue import routes
from catalogue.config import SiteConfig
from catalogue.discovery.related import SimilarityProcess
from catalogue.i18n.strings import load_strings, localise_topic
from catalogue.markup.convert import KEPT_TYPES as CONVERTED_TYPES
from catalogue.content.papers import KEPT_TYPES as CONTENT_TYPES
from catalogue.model import Catalogue
from catalogue.site.cards import plan_cards
from catalogue.site.cite import proceedings_names, venue_label
from catalogue.publish.writer import Batch, Output
from catalogue.site.author_parts import plan_author_parts
from catalogue.site.data_files import plan_data_files, plan_index_record, plan_paper_files, render_site_data
from catalogue.site.pages import PagePlanner
from catalogue.site.pagination import PageSizes
from catalogue.site.templating import templates_state
from catalogue.site.views import KEPT_TYPES as VIEW_TYPES, view_papers
from catalogue.system.cache import Cache, code_version, digest
from catalogue.system.terminal import counted

# What the render keeps in the build cache, each part declared beside its types: content files' papers, converted texts, views.
KEPT_TYPES = tuple(dict.fromkeys((*CONTENT_TYPES, *CONVERTED_TYPES, *VIEW_TYPES)))


def plan_site(catalogue: Catalogue, config: SiteConfig, env: Environment, cache: Cache,
              similarity: SimilarityProcess, sizes: PageSizes = PageSizes()) -> list[Batch]:
    """Every file of the site but assets and search bundle, each with the digest of its inputs,
    unmade, in three batches: what needs neither related papers nor the map (planned now),
    the paper pages, the map. The similarity process works while a batch is written; planning
    the next one waits for its answer."""
    strings = load_strings(config.language)
    catalogue = replace(catalogue, topics=tuple(localise_topic(t, config.language) for t in catalogue.topics))
    t = strings.text
    venue = functools.partial(venue_label, unknown=t("paper.unknown_venue"))  # as pages name it
    views = view_papers(catalogue, config, cache, venue)
    similarity.ask([f"{view.title_text}. {view.plain_abstract}" for view in views], cache)
    everything = digest(code_version(__name__), templates_state(env), config, sorted(strings.table.items()))
    pages = PagePlanner(catalogue, views, config, env, strings, everything, sizes)
    lists = pages.plan_lists()
    paper_paths = [view.path for view in views] + [routes.MAP]
    data = plan_data_files(catalogue, views, config, sorted([o.path for o in lists] + paper_paths), everything, venue)
    data.append(plan_index_record(views, everything, t("paper.unknown_venue"), config.language))
    data += plan_author_parts(pages.authors, everything)  # the authors index's filter data
    proceedings = proceedings_names(paper.venue for paper in catalogue.papers if paper.venue)
    data.append(Output(routes.SITE_DATA, digest(everything, proceedings),
                       lambda: render_site_data(strings.script_strings(), routes.PATTERNS, proceedings)))
    # The few big files first (data, then lists), the many small ones after: no worker is left with a big one at the end.
    first = data + lists + plan_paper_files(views, everything) + plan_cards(pages.venues, config, strings)
    map_planner = pages.map_planner()  # the last batch holds no view: they go once the paper pages are written
    return [Batch("lists, feeds and search data (related papers are found meanwhile)", lambda: first),
            Batch(counted(len(views), "paper page"), lambda: pages.plan_papers(similarity.related())),
            Batch("the map", lambda: map_planner.plan(similarity.positions(), similarity.groups()), searched=False)]
