import random
from charts import points

random.seed(3)
for i in range(30):
    points.point(random.random() * 5, random.random() * 5, random.random() * 5)
