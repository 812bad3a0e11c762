"""The test data folder holds exactly the listed files, each described in its README.

The format, hand-record and import tests are parametrized from the lists in
data_files.py, never from a glob: a file deleted from tests/data fails here and in
every test that reads it, and a file added without being listed fails here.
"""

import pytest

from tests.formats.data_files import DATA_DIR, DATA_FILES

README = DATA_DIR / "README.md"
#: What tests/data holds besides the listed folders.
DATA_DIR_EXTRAS = {"README.md", ".gitattributes"}


@pytest.mark.parametrize("folder", DATA_FILES)
def test_every_listed_file_is_in_its_folder(folder):
    missing = [name for name in DATA_FILES[folder] if not (DATA_DIR / folder / name).is_file()]
    assert missing == [], f"missing from {DATA_DIR / folder}"


@pytest.mark.parametrize("folder", DATA_FILES)
def test_each_folder_holds_exactly_its_list(folder):
    found = sorted(path.name for path in (DATA_DIR / folder).iterdir())
    assert found == sorted(DATA_FILES[folder]), "update the list in tests/formats/data_files.py"


def test_the_lists_are_sorted_without_duplicates():
    for names in DATA_FILES.values():
        assert names == sorted(set(names))


def test_the_data_folder_holds_only_the_listed_folders_and_its_readme():
    assert sorted(path.name for path in DATA_DIR.iterdir()) == sorted(set(DATA_FILES) | DATA_DIR_EXTRAS)


def test_the_readme_describes_every_file():
    text = README.read_text(encoding="utf-8")
    undescribed = [name for names in DATA_FILES.values() for name in names if name not in text]
    assert undescribed == []
