"""The MQTT client both sides use: paho-mqtt, MQTT 5, set up from a :class:`~companion.club.url.ClubURL`."""

from __future__ import annotations

from companion.club.url import ClubURL


def mqtt_client(url: ClubURL, client_id: str):
    """A paho-mqtt client (MQTT 5) set up for ``url``: credentials, TLS for ``mqtts``, reconnect
    back-off 1–30 s. Not connected yet.

    Raises:
        MissingPart: paho-mqtt is not installed.
    """
    try:
        import paho.mqtt.client as mqtt
    except ImportError:  # pragma: no cover - a runtime dependency
        from companion.parts import MissingPart

        raise MissingPart("club mode (MQTT client)", "paho-mqtt") from None
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    if url.user:
        client.username_pw_set(url.user, url.password)
    if url.tls:
        client.tls_set(ca_certs=str(url.ca) if url.ca else None)
    client.reconnect_delay_set(min_delay=1, max_delay=30)
    client.max_inflight_messages_set(50)
    return client


def connect_properties(session_s: int):
    """MQTT 5 CONNECT properties keeping the session ``session_s`` seconds after a disconnect."""
    from paho.mqtt.packettypes import PacketTypes
    from paho.mqtt.properties import Properties

    props = Properties(PacketTypes.CONNECT)
    props.SessionExpiryInterval = session_s
    return props
