"""AsAt web: the research workspace in the browser.

Server-rendered pages (Jinja2) and a little plain JavaScript for the live event stream. The
web service talks to the research service over HTTP only, and the browser talks to the web
service only (same origin).
"""
