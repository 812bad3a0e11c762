from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubsessions', '0020_player_visitor'),
    ]

    operations = [
        migrations.AddField(
            model_name='event',
            name='imp_total',
            field=models.CharField(choices=[('sum', 'The IMPs of the boards played, added up'), ('scaled', "Scaled to the session's boards (Magic Contest, Pianola)"), ('per_comparison', 'IMPs per comparison (Ruter)')], default='sum', max_length=16),
        ),
        migrations.AddField(
            model_name='importjob',
            name='sections',
            field=models.CharField(blank=True, choices=[('together', 'Together'), ('apart', 'Apart')], default='', max_length=8),
        ),
    ]
