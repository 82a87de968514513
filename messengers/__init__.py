"""Django project package for Carcassonne with The Messengers."""
