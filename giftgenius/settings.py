"""One typed settings object.

Precedence: CLI flags (passed as ``overrides``) > environment > ``config/giftgenius.toml``
(or the file named by ``GIFTGENIUS_CONFIG``) > defaults. With nothing set, everything runs
on embedded defaults: a SQLite file, a SQLite session store and the offline model.

The defaults are the fields of ``Settings`` and nowhere else: the shipped
``config/giftgenius.toml`` shows every key commented out with its default, and sets none
(``tests/system/test_shipped_config.py`` holds it to these fields).
"""

from __future__ import annotations

import datetime as dt
import os
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from platformdirs import user_data_dir
from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from giftgenius.domain import Currency, utcnow
from giftgenius.errors import ConfigError
from giftgenius.messages import speak
from giftgenius.privacy import DEFAULT_PHONE_REGIONS
from giftgenius.resources import resource_dir
from giftgenius.tokens import window_too_small

RATE_LIMIT = re.compile(r"0*[1-9]\d{0,8}\s*(?:/|per)\s*(?:second|minute|hour|day)s?", re.I)
"""What ``GIFTGENIUS_RATE_LIMIT`` may say ("120/minute"): the ``limits`` library reads it."""

TOKEN_SECRET_CHARS = 32
"""The shortest ``GIFTGENIUS_TOKEN_SECRET`` taken: HS256's key is at least its hash's size."""

DATABASE_FILE = "giftgenius.db"
"""The embedded database's file in ``GIFTGENIUS_HOME`` (when no database URL is set)."""


def _config_file() -> Path | None:
    named = os.environ.get("GIFTGENIUS_CONFIG")
    if named:
        return Path(named)
    try:
        path = resource_dir("config") / "giftgenius.toml"
    except FileNotFoundError:
        return None
    return path if path.is_file() else None


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GIFTGENIUS_", extra="ignore")

    home: Path = Field(default_factory=lambda: Path(user_data_dir("giftgenius", False)))
    database_url: str | None = None
    redis_url: str | None = None
    redis_prefix: str = "giftgenius"
    session_ttl: int = Field(1800, ge=1)
    session_max_lifetime: int = Field(7 * 24 * 3600, ge=1)
    lease_ttl: float = Field(8.0, gt=0)
    lease_wait: float = Field(5.0, ge=0)
    model: str = "offline"
    openai_api_key: str | None = Field(
        None, validation_alias=AliasChoices("OPENAI_API_KEY", "GIFTGENIUS_OPENAI_API_KEY")
    )
    openai_base_url: str | None = Field(
        None, validation_alias=AliasChoices("OPENAI_BASE_URL", "GIFTGENIUS_OPENAI_BASE_URL")
    )
    model_timeout: float = Field(60.0, gt=0)
    # Whole answers instead of streamed ones, for servers that cannot stream a tool call.
    model_stream: bool = True
    # Keep every model request and answer here (``llm/recording.py``; ``replay:DIR``).
    record_dir: Path | None = None
    model_max_retries: int = Field(3, ge=0)
    # What long-term memory asks ``POST …/embeddings`` for, with ``openai:…`` models; the
    # offline model embeds lexically whatever is named (``language/embedding.py``).
    embedding_model: str = Field("text-embedding-3-small", min_length=1)
    context_window: int | None = Field(None, ge=1)  # the minimum depends on the reserve
    completion_reserve_tokens: int = Field(600, ge=64)
    summary_trigger_ratio: float = Field(0.7, gt=0, le=1)
    summary_max_tokens: int = Field(400, ge=50)
    keep_recent_messages: int = Field(6, ge=1)
    max_input_chars: int = Field(4000, ge=1)
    max_tool_rounds: int = Field(8, ge=1)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    currency: Currency = "USD"
    retention_days: int = Field(90, ge=1)
    # The calendar day the agent reads dates against ("next Friday", "by the 20th"); unset,
    # the real one. Demos, dialogue corpora and tests state it so a replay means the same
    # thing on any day; the time of day still runs (see ``clock``).
    today: dt.date | None = None
    phone_regions: Annotated[tuple[str, ...], NoDecode] = DEFAULT_PHONE_REGIONS
    # The HTTP service (``giftgenius serve``): requests per user and period, and the
    # largest request body taken.
    rate_limit: str = "120/minute"
    max_request_bytes: int = Field(65536, ge=1024)
    # The secret signed bearer tokens (JWT, HS256) are checked with (``signed_tokens.py``);
    # unset, the service takes API keys only. At least 32 characters: HS256's key length.
    token_secret: SecretStr | None = None

    @field_validator("log_level", "currency", mode="before")
    @classmethod
    def _upper(cls, value: Any) -> Any:
        return value.upper() if isinstance(value, str) else value

    @field_validator("rate_limit")
    @classmethod
    def _rate_limit(cls, value: str) -> str:
        """``N/second``, ``N/minute``, ``N/hour`` or ``N/day`` (``N per minute`` too), N ≥ 1."""
        if not RATE_LIMIT.fullmatch(value.strip()):
            raise ValueError(speak("service", "rate_limit.setting", value=repr(value)))
        return value.strip()

    @field_validator("token_secret")
    @classmethod
    def _token_secret(cls, value: SecretStr | None) -> SecretStr | None:
        """Long enough for HS256 (RFC 7518: a key as long as the hash); the message gives
        its length, never the secret."""
        if value is not None and len(value.get_secret_value()) < TOKEN_SECRET_CHARS:
            length = len(value.get_secret_value())
            raise ValueError(speak("service", "token.secret_short", length=length))
        return value

    @field_validator("home", mode="before")
    @classmethod
    def _home(cls, value: Any) -> Any:
        """A blank home (spaces, or ``home = ""`` in the config file) is refused: as a
        path it is the working directory, and the databases would land wherever a command
        happens to run."""
        if isinstance(value, (str, Path)) and not str(value).strip():
            raise ValueError(speak("settings", "home.blank"))
        return value

    @field_validator("record_dir", mode="before")
    @classmethod
    def _record_dir(cls, value: Any) -> Any:
        """Unset when empty; absolute, since commands may run in other folders."""
        if value is None or not str(value).strip():
            return None
        return Path(str(value).strip()).expanduser().absolute()

    @model_validator(mode="after")
    def _window_holds_a_request(self) -> Settings:
        """Refuse at start-up a window too small for any request, not at the first message."""
        if self.context_window is not None:
            problem = window_too_small(self.context_window, self.completion_reserve_tokens)
            if problem is not None:
                raise ValueError(problem)
        return self

    @field_validator("phone_regions", mode="before")
    @classmethod
    def _regions(cls, value: Any) -> Any:
        """A comma-separated list in the environment ("US,CA,GB"), a list in the TOML file.

        Each must be a region phonenumbers knows, so a typo is refused here, at startup,
        rather than silently letting that country's numbers through the scrubber.
        """
        import phonenumbers

        items = value.split(",") if isinstance(value, str) else value
        if not isinstance(items, (list, tuple)):
            return value
        regions = tuple(str(item).strip().upper() for item in items)
        unknown = [r for r in regions if r not in phonenumbers.SUPPORTED_REGIONS]
        if unknown or not regions:
            named = ", ".join(map(repr, unknown)) or speak("settings", "regions.empty")
            raise ValueError(speak("settings", "regions.unknown", regions=named))
        return regions

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [
            init_settings,
            _EmptyPathsUnset(settings_cls, env_settings),
        ]
        path = _config_file()
        if path is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=path))
        return tuple(sources)

    def clock(self) -> Callable[[], dt.datetime]:
        """The agent's clock: the real one, or the day ``today`` states at today's time.

        Only the date is stated: the time of day keeps running, so timestamps stay ordered,
        and a stated day reads "next Friday" or "in 9 days" as a person on that day would.
        """
        day = self.today
        if day is None:
            return utcnow

        def stated() -> dt.datetime:
            return dt.datetime.combine(day, utcnow().timetz())

        return stated

    @property
    def effective_database_url(self) -> str:
        return self.database_url or f"sqlite:///{self.home / DATABASE_FILE}"

    @property
    def sessions_path(self) -> Path:
        """The embedded session store's SQLite file (used when no Redis URL is set)."""
        return self.home / "sessions.db"

    @property
    def logs_dir(self) -> Path:
        return self.home / "logs"

    @property
    def is_offline_model(self) -> bool:
        return self.model == "offline"


_PLACES = frozenset({"home", "database_url", "redis_url", "record_dir"})
"""The settings that say where data goes: an empty variable for one of them is unset."""


class _EmptyPathsUnset(PydanticBaseSettingsSource):
    """The environment, where an empty variable naming a place counts as unset.

    ``GIFTGENIUS_HOME= giftgenius …`` (or a variable exported from an empty shell variable)
    used to be ``Path("")``, the working directory: the databases and logs landed wherever
    a command ran. Unset, the config file or the default applies instead. Other empty
    variables stay values for their own validators (an empty list of phone regions is
    refused rather than taken for the default).
    """

    def __init__(self, settings_cls: type[BaseSettings], env: PydanticBaseSettingsSource):
        super().__init__(settings_cls)
        self.env = env

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return self.env.get_field_value(field, field_name)

    def __call__(self) -> dict[str, Any]:
        return {k: v for k, v in self.env().items() if not (k in _PLACES and v == "")}


def load_settings(**overrides: Any) -> Settings:
    """Build settings, turning validation failures into a message naming the variable."""
    # an empty flag (``--home ""``) is no flag, as an empty variable is no variable
    clean = {k: v for k, v in overrides.items() if v is not None and v != ""}
    _check_config_file()
    try:
        return Settings(**clean)
    except ValidationError as exc:
        problems = "; ".join(_problem(err) for err in exc.errors())
        raise ConfigError(speak("settings", "invalid", problems=problems)) from exc


def _check_config_file() -> None:
    """The config file must be there (when named), UTF-8 and TOML; else one line naming it.

    pydantic-settings reads it with a bare ``open`` and ``tomllib``: a missing named file
    was silently ignored, and a broken one ended in a traceback.
    """
    path = _config_file()
    if path is None:
        return
    try:
        text = path.read_bytes().decode("utf-8")
        tomllib.loads(text)
    except FileNotFoundError:
        raise ConfigError(speak("settings", "config.missing", path=path)) from None
    except OSError as exc:
        raise ConfigError(
            speak("settings", "config.unreadable", path=path, reason=exc.strerror)
        ) from exc
    except UnicodeDecodeError as exc:
        byte = f"{exc.object[exc.start]:02x}"
        raise ConfigError(
            speak("settings", "config.not_utf8", path=path, byte=byte, offset=exc.start)
        ) from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(speak("settings", "config.not_toml", path=path, reason=exc)) from exc


def _problem(err: ErrorDetails) -> str:
    """One validation error, naming its variable; a whole-settings check names its own."""
    if not err["loc"]:  # a model validator: its message already names the variables
        return str(err.get("ctx", {}).get("error", err["msg"]))
    return f"GIFTGENIUS_{'_'.join(str(p) for p in err['loc']).upper()}: {err['msg']}"
