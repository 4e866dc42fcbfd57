from __future__ import annotations

from giftgenius.cli.main import entrypoint

if __name__ == "__main__":
    entrypoint()
