"""Backends behind the port: ``sim`` (MuJoCo) and ``ros`` (rclpy); ``factory`` picks one."""
