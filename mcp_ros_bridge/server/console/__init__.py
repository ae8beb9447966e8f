"""
The operator console: a page the bridge serves for the person beside the robot.

Live state over server-sent events, approvals, the audit trail and a STOP the
person owns (:mod:`.operator`); the HTTP routes (:mod:`.routes`); the MCP App
resource (:mod:`.app_resource`). Importing this package imports nothing heavy.
"""
