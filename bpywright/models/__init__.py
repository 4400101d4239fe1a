"""Local models: a catalogue of GGUF weights shipped inside registry packages, their install/verify, and a supervised llama.cpp server."""
