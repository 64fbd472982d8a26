"""Wire-level fakes of Xero and HubSpot (FastAPI apps) and a way to serve them on a free port.

``FakeXero`` and ``FakeHubSpot`` speak the providers' request and response shapes (each module
names the specification it follows) and misbehave on demand (``misbehave``: an expired token, a
429 with ``Retry-After``, a 500, a reply that comes too late, a duplicate-invoice reply). The
connectors reach them by base URL (``XeroEndpoints.single_host``, ``ASAT_HUBSPOT_API_URL``), so
the same code runs against the fakes and the live APIs. ``serve`` runs an app with uvicorn in a
thread for the length of a ``with`` block.
"""

from asat_connections.testing.fake_hubspot import FakeHubSpot
from asat_connections.testing.fake_xero import FakeXero
from asat_connections.testing.misbehaviour import Misbehaviour
from asat_connections.testing.server import ServedApp, serve, serve_all

__all__ = ["FakeHubSpot", "FakeXero", "Misbehaviour", "ServedApp", "serve", "serve_all"]
