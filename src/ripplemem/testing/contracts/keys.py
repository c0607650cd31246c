"""The key contract: what every :class:`~ripplemem.stores.keys_base.KeyStore` must do.

A key store is not part of the memory store seam (``docs/backends.md``): a backend that keeps
API keys offers one as its ``keys``. Subclass :class:`KeyStoreContract` and give it the fixture
``open_keys(name="main")``: the key store of the store called ``name`` (each name a separate,
initially empty store; opening a name again opens the same keys when they are persistent, and the
fixture closes what it opened at the end of the test)::

    class TestMyKeys(KeyStoreContract):
        persistent = True

        @pytest.fixture
        def open_keys(self, tmp_path):
            ...
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

import pytest

from ripplemem.errors import InvalidInputError
from ripplemem.records import ApiKey
from ripplemem.stores.keys_base import KeyStore

__all__ = ["KeyOpener", "KeyStoreContract"]

#: ``open_keys(name="main")``: see the module docstring
KeyOpener = Callable[..., KeyStore]


class KeyStoreContract:
    #: the keys outlive their store (True: reopening a name finds them)
    persistent = False

    @pytest.fixture
    def open_keys(self) -> KeyOpener:
        raise NotImplementedError("a KeyStoreContract subclass provides the open_keys fixture")

    @pytest.fixture
    def keys(self, open_keys: KeyOpener) -> KeyStore:
        return open_keys()

    def test_keys_are_found_by_the_hash_of_their_secret(self, keys: KeyStore) -> None:
        assert isinstance(keys, KeyStore)
        made = datetime(2026, 1, 2, 3, 4, 5)
        alex = ApiKey("k1", "hash-1", ("alex",), made, label="alex's app")
        admin = ApiKey("k2", "hash-2", (), made + timedelta(seconds=1), admin=True)
        reader = ApiKey("k3", "hash-3", ("alex", "sam"), made + timedelta(2), read_only=True)
        for key in (alex, admin, reader):
            keys.add_key(key)
        assert keys.key_by_hash("hash-1") == alex and keys.key_by_hash("nope") is None
        assert keys.list_keys() == [alex, admin, reader]
        assert alex.allows("alex") and not alex.allows("sam") and admin.allows("anyone")
        with pytest.raises(InvalidInputError):
            keys.add_key(replace(alex, secret_hash="other"))  # the same id
        with pytest.raises(InvalidInputError):
            keys.add_key(replace(alex, id="k9"))  # the same secret
        with pytest.raises(InvalidInputError, match="namespace"):
            keys.add_key(ApiKey("k4", "hash-4", (), made))
        assert [k.id for k in keys.list_keys()] == ["k1", "k2", "k3"]  # nothing of the refused

    def test_a_revoked_key_stays_known_but_inactive(self, keys: KeyStore) -> None:
        keys.add_key(ApiKey("k1", "hash-1", ("alex",), datetime(2026, 1, 1)))
        at = datetime(2026, 2, 1)
        assert keys.revoke_key("k1", at) is True
        assert keys.revoke_key("k1", datetime(2026, 3, 1)) is False  # the first time stays
        assert keys.revoke_key("ghost", at) is False
        revoked = keys.key_by_hash("hash-1")
        assert revoked is not None and revoked.revoked_at == at
        assert not revoked.active and not revoked.allows("alex")

    def test_keys_are_there_after_reopening(self, open_keys: KeyOpener) -> None:
        if not self.persistent:
            pytest.skip("the key store declares persistent = False")
        key = ApiKey("k1", "hash-1", ("ns",), datetime(2026, 1, 1), label="kept")
        open_keys("kept").add_key(key)
        assert open_keys("kept").list_keys() == [key]
        assert open_keys("other").list_keys() == []
