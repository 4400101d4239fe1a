import charts

data = [3, 5, 2, 8, 6]
mat = charts.colored("Bars", (0.1, 0.4, 0.8))
for i, v in enumerate(data):
    charts.bar(i, v, mat)
