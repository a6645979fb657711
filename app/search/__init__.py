"""Search: filters, reading a question, retrieval, ranking, the words search sees."""
