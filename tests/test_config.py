import pytest

from catalogue.config import host_base_url, read_config


@pytest.mark.parametrize("environment, expected", [
    ({}, None),
    ({"URL": "https://x.netlify.app"}, None),  # not building on Netlify
    ({"NETLIFY": "true", "URL": "https://cat.example.org", "CONTEXT": "production"}, "https://cat.example.org"),
    ({"NETLIFY": "true", "URL": "https://cat.example.org", "CONTEXT": "deploy-preview",
      "DEPLOY_PRIME_URL": "https://deploy-preview-4--cat.netlify.app"}, "https://deploy-preview-4--cat.netlify.app"),
])
def test_base_url_from_the_host(environment, expected):
    assert host_base_url(environment) == expected


def test_flags_override_the_same_settings_in_the_file(tmp_path):
    path = tmp_path / "site.toml"
    path.write_text('language = "en"\nbase_url = "https://example.org/a/"\n', encoding="utf-8")
    config = read_config(path, language="zh-CN", base_url="https://example.org/b")
    assert (config.language, config.base_url) == ("zh-CN", "https://example.org/b/")
