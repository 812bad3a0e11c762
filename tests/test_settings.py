import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_deploy_check_passes_with_production_values():
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"SECURE_SSL_REDIRECT", "DJANGO_ALLOW_ASYNC_UNSAFE"}},
        "DJANGO_SETTINGS_MODULE": "clubscore.settings",
        "DEBUG": "0",
        "SECRET_KEY": "x" * 20 + "production-like-secret-key-with-enough-entropy-1234567890",
        "ALLOWED_HOSTS": "scores.example.org",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_settings_refuse_to_start_without_secret_key_in_production():
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    env["DJANGO_SETTINGS_MODULE"] = "clubscore.settings"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr
