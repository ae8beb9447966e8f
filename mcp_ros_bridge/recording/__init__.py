"""Every session as one MCAP file: the recorder, and ``verify``, ``inspect``, ``replay``."""
