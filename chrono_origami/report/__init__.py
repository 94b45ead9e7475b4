"""Reports of results: tables and CSV (``tables``), figures (``figures``), the results page (``html``)."""


def html(result, path, **options):
    """Write the self-contained interactive results page of ``result`` to ``path`` (:func:`.page.html`)."""
    from .page import html as write

    return write(result, path, **options)
