"""The deployment of deploy/: nginx, units, upgrades, backups."""
