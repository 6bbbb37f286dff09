"""Helpers the tests share: reading rendered documents back, walking case models, broken inputs."""
