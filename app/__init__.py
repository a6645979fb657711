"""recipe-chat: a multi-turn RAG recipe chat back end on Azure Functions (see function_app.py)."""
