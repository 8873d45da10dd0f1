#!/bin/sh
# Patroni runs this once, on the node that initialises the cluster, with a superuser connection
# string: it makes the application's database (the API applies its migrations at start).
set -eu
psql -v ON_ERROR_STOP=1 "$1" -c "create database sandbank"
