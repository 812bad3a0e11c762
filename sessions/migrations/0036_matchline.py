# MatchBoard was a line, not a board: the model is MatchLine now, its table unchanged.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("clubsessions", "0035_handicaps_sources_grade_rating_strata"),
    ]

    operations = [
        migrations.AlterModelTable(name="matchboard", table="clubsessions_matchboard"),
        migrations.RenameModel(old_name="MatchBoard", new_name="MatchLine"),
    ]
