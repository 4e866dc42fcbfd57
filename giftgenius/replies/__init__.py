"""What the person reads: sentences in English and French, and the presentation of tool
outcomes built from them.

Shared by the agent (which presents a conclusive outcome itself, without another model
call) and the offline model (which writes its replies with the same sentences). It sees
tool results as the model sees them — JSON — and imports only the catalog and the bottom
utilities.
"""
