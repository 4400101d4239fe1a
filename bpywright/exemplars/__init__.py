"""The exemplar store: validated scripts with renders, perceptual hashes and CLIP vectors."""
