"""Benchmarks: commands that print figures (never timed tests).

- ``context`` (``bench context``): what budgeted context and summaries save;
- ``turn`` (``bench turn``): where one turn's time goes through the real ``Agent.turn``,
  by phase, as conversations and catalogs grow, and turns per second over processes;
- ``load`` (``bench load``): many sessions over several processes on one set of stores,
  counting lost or duplicated transcript messages;
- ``over_http`` (``bench http``): several users at once over several ``giftgenius serve``
  processes (``servers``), counting lost, duplicated and cross-user turns from what the
  service stored;
- ``catalogs``: synthetic catalogs written into a database (``catalog generate``);
- ``scratch``: the stores ``bench turn`` and ``bench load`` run on — a scratch database and
  Redis key prefix of their own, or temporary SQLite files — removed at the end, so the
  configured catalog, users and sessions are never touched;
- ``players`` and ``procs``: the scripted conversation and the worker processes they share
  (stopped within seconds when the command is interrupted).

``bench state`` lives in ``giftgenius/bench/state.py`` (its conversation is also a test's).
"""
