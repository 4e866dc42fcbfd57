"""What the person reads: replies in English and French, and the presentation of tool
outcomes, built from the sentences of the message catalogue (``giftgenius.messages``).

Shared by the agent (which presents a conclusive outcome itself, without another model
call) and the offline model (which writes its replies with the same sentences). It sees
tool results as the model sees them — JSON — and imports only the catalog and the bottom
utilities.
"""
