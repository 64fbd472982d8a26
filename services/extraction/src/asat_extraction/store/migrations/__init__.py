"""SQL migrations of schema ``extraction`` (``NNNN_name.sql``), applied by ``store.migrate``."""
