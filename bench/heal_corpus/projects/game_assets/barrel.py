from assetlib import makeBarrel

b = makeBarrel(radius=0.6)
b.location = (3, 0, 0)
