"""GiftGenius over HTTP (FastAPI): an entry point beside ``cli``, on the same layer.

``create_app`` builds the application; ``giftgenius serve`` runs it with uvicorn. The map
of the package is in ``giftgenius/README.md``, "The HTTP service".
"""
