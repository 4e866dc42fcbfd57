"""The dialogue evaluator behind ``giftgenius eval``.

``corpus`` reads and checks dialogue files, ``pools`` draws replay values for their slots,
``player`` plays one run through the real command line, ``judge`` grades the chosen gift by
its catalog record, and ``runner`` plays a corpus in parallel and reports.
"""

from __future__ import annotations
