from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0006_address_counts"),
    ]

    operations = [
        migrations.AddField(
            model_name="logentry",
            name="device",
            field=models.CharField(blank=True, db_default="", default="", max_length=16),
        ),
    ]
