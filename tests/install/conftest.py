# a real PostgreSQL for the [postgres] install (tests/stores/conftest.py)
from stores.conftest import postgres_store_url, postgres_url

__all__ = ["postgres_store_url", "postgres_url"]
