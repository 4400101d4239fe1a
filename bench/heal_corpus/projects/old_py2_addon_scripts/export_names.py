import common

common.names_by_type()
