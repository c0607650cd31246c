"""The query parameters a request may carry: those its route declares in the OpenAPI document,
each once (an array parameter may repeat). Anything else is refused, naming it, so a typo
(``?agnt_id=planner``) or a doubled id (``?namespace=a&namespace=b``) is never dropped or
settled silently while the request goes on in the key's namespace."""

from __future__ import annotations

from fastapi import Request
from starlette.datastructures import QueryParams

from ripplemem.errors import InvalidInputError

__all__ = ["check_query", "check_query_names"]


def check_query(request: Request) -> None:
    """Refuse a query parameter the request's route does not take, or one given twice."""
    route = request.scope.get("route")
    path = getattr(route, "path", None)
    if path is None or not request.query_params:
        return
    declared = _declared(request, path, request.method)
    check_query_names(request.query_params, declared)


def check_query_names(query: QueryParams, declared: dict[str, bool]) -> None:
    """``declared``: each name a route takes, True when it may be given more than once."""
    for name in dict.fromkeys(query.keys()):
        if name not in declared:
            takes = ", ".join(declared) or "none"
            raise InvalidInputError(
                f"unknown query parameter {name!r}: this route takes {takes}"
            )
        if not declared[name] and len(query.getlist(name)) > 1:
            raise InvalidInputError(f"query parameter {name!r} is given twice: give it once")


def _declared(request: Request, path: str, method: str) -> dict[str, bool]:
    """The query parameters of ``method path`` as the app's OpenAPI document declares them."""
    cache: dict[tuple[str, str], dict[str, bool]] = request.app.state.declared_query
    key = (path, method)
    if key not in cache:
        operations = request.app.openapi()["paths"].get(path, {})
        operation = operations.get(method.lower()) or operations.get("get", {})
        cache[key] = {
            p["name"]: _is_array(p.get("schema", {}))
            for p in operation.get("parameters", [])
            if p.get("in") == "query"
        }
    return cache[key]


def _is_array(schema: dict) -> bool:
    options = schema.get("anyOf", [schema])
    return any(option.get("type") == "array" for option in options)
