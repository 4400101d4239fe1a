import assetlib

for i in range(3):
    c = assetlib.makeCrate(1.0 + i * 0.2)
    c.location.x = i * 2
