"""The web app (`quartermaster serve`): pages and a JSON API on the application layer.

- `server`: the Starlette app (`create_app`) and `serve` (uvicorn).
- `guard`: the key, the size limit and the same-site rule.
- `api`: the JSON routes; `pages`: the HTML pages (templates/ and static/ beside them).
- `work`: packets and previews made off the event loop; `state`: what a server holds.
"""
