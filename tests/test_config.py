import pytest

from catalogue.config import host_base_url


@pytest.mark.parametrize("environment, expected", [
    ({}, None),
    ({"URL": "https://x.netlify.app"}, None),  # not building on Netlify
    ({"NETLIFY": "true", "URL": "https://cat.example.org", "CONTEXT": "production"}, "https://cat.example.org"),
    ({"NETLIFY": "true", "URL": "https://cat.example.org", "CONTEXT": "deploy-preview",
      "DEPLOY_PRIME_URL": "https://deploy-preview-4--cat.netlify.app"}, "https://deploy-preview-4--cat.netlify.app"),
])
def test_base_url_from_the_host(environment, expected):
    assert host_base_url(environment) == expected
