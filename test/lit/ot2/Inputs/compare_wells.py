"""Runs an OT-2 protocol through Opentrons' own simulator and compares, well
by well, what the Opentrons run puts in the sample plate with what plate's
BioForge-1 simulator put there for the same script.

    compare_wells.py PROTOCOL.py BF1_STATE.json BF1_STREAM.jsonl [STRIDE]

- BF1_STATE.json: `plate run --state-out` (each well's final contents by
  liquid, after the BioForge-1 run);
- BF1_STREAM.jsonl: `plate compile --emit=bf1-json` (the commands that run
  executed), for the volume the robot dispensed into each well.

From Opentrons' run log (opentrons.simulate.simulate(): each aspirate and
dispense with its pipette, location and volume) the script follows every
channel's tip: what it takes from a source (the liquid the protocol's
load_liquid put there) or from a well (in proportion, the plate's model of
a well), and what it gives. A well differs when its final contents by
liquid, or the total the robot dispensed into it, differ by more than
1 nL. One line per differing well, then a total line.

Finds Opentrons as an installed package, else in the snapshot named by
$OPENTRONS_SNAPSHOT (api/src and shared-data/python); exits 2 saying what
is missing when neither is there.
"""
import io
import json
import os
import sys
import tempfile

TOLERANCE_UL = 1e-3
ROWS = "ABCDEFGHIJKLMNOP"


def import_opentrons():
    os.environ.setdefault("OT_API_CONFIG_DIR", tempfile.mkdtemp(prefix="ot-config-"))
    sys.dont_write_bytecode = True
    snapshot = os.environ.get("OPENTRONS_SNAPSHOT", "")
    try:
        import opentrons  # noqa: F401 an installed package comes first
    except ImportError:
        if not snapshot or not os.path.isdir(os.path.join(snapshot, "api", "src")):
            sys.exit("compare_wells: no Opentrons simulator: the `opentrons` package is not "
                     "installed and there is no snapshot at {!r} (OPENTRONS_SNAPSHOT, "
                     "../shared/peers/opentrons); install one of them".format(snapshot))
        for sub in ("api/src", "shared-data/python"):
            sys.path.insert(0, os.path.join(snapshot, sub))
    try:
        from opentrons import simulate
        from opentrons.protocol_api import labware
        from opentrons.protocol_api import instrument_context
        from opentrons.legacy_commands import publisher
        from opentrons import legacy_broker
    except ImportError as error:
        sys.exit("compare_wells: Opentrons' simulator does not import ({}); run tools/setup.sh "
                 "for the Debian packages it needs".format(error))
    record_nozzle_layouts(instrument_context.InstrumentContext, publisher)
    count_log_entries(legacy_broker.LegacyBroker)
    return simulate, labware


# Entries of the run log published so far: where in the run a load_liquid
# call happens (a MANUAL dispense's wells are loaded at its pause).
published = [0]


def count_log_entries(broker_class):
    original = broker_class.publish

    def publish(self, topic, message):
        if isinstance(message, dict) and message.get("$") == "before":
            published[0] += 1
        return original(self, topic, message)

    broker_class.publish = publish


NOZZLES = "plate-compare-wells: nozzles"


def record_nozzle_layouts(instrument_class, publisher):
    """Puts each nozzle layout change into the run log, which does not say
    which nozzles a partially configured 8-channel uses."""
    original = instrument_class.configure_nozzle_layout

    def configure(self, style=None, start=None, end=None, *args, **kwargs):
        result = original(self, style, start, end, *args, **kwargs)
        text = "{} {} {} {}".format(NOZZLES, self, self.active_channels, start or "A1")
        with publisher.publish_context(broker=self.broker,
                                       command={"name": "command.COMMENT", "payload": {"text": text}}):
            pass
        return result

    instrument_class.configure_nozzle_layout = configure


def add(composition, liquid, ul):
    composition[liquid] = composition.get(liquid, 0.0) + ul


def take(composition, ul):
    """Takes ul out of a composition in proportion; returns what was taken."""
    total = sum(composition.values())
    taken = {}
    if total <= 0:
        return taken
    for liquid, amount in composition.items():
        part = amount * min(ul, total) / total
        taken[liquid] = part
        composition[liquid] = amount - part
    return taken


class OpentronsRun:
    def __init__(self, simulate, labware, protocol_path):
        self.sources = {}   # (labware id, well) -> liquid name: where load_liquid put it
        self.wells = {}     # (labware id, well) -> composition
        self.received = {}  # plate well -> µL dispensed into it
        self.plate_id = None
        original = labware.Well.load_liquid
        run = self
        self.loads = []  # (log entries before it, well key, liquid, µL)

        def record(well, liquid, volume):
            key = (id(well.parent), well.well_name)
            run.sources[key] = liquid.name
            # Applied where it happens in the run: a MANUAL dispense adds to
            # what the well holds then.
            run.loads.append((published[0], key, liquid.name, float(volume)))
            run.is_plate(well)  # a plate the robot only mixes in is still the plate
            return original(well, liquid, volume)

        labware.Well.load_liquid = record
        try:
            with open(protocol_path) as protocol:
                self.log, _ = simulate.simulate(protocol, file_name=os.path.basename(protocol_path))
        finally:
            labware.Well.load_liquid = original
        self.commands = 0
        self.off_labware = 0.0  # µL dispensed by nozzles beyond the labware's wells
        self.replay()

    @staticmethod
    def well_of(location):
        if location is None:
            return None
        if hasattr(location, "well_name"):
            return location
        labware_like = getattr(location, "labware", None)
        if labware_like is not None and getattr(labware_like, "is_well", False):
            return labware_like.as_well()
        return None

    def channel_wells(self, well, channels, back_primary=True):
        """The wells the channels of a pipette reach at `well`: from the
        primary nozzle A1 to the front, or from H1 (a partial column) to
        the back."""
        if channels == 1:
            return [well]
        labware = well.parent
        row, col = well.well_name[0], well.well_name[1:]
        if "B" + col not in labware.wells_by_name():  # a trough: all channels in one well
            return [well] * channels
        start = ROWS.index(row)
        if not back_primary:
            start -= channels - 1
        # A nozzle beyond the labware's rows reaches no well (None).
        names = labware.wells_by_name()
        return [names.get(ROWS[start + i] + col) if 0 <= start + i < len(ROWS) else None
                for i in range(channels)]

    def replay(self):
        tips = {}    # pipette -> list of compositions, one per channel
        parked = {}  # rack well key -> composition of a returned tip
        picked = {}  # pipette -> rack keys of the tips it holds
        mixing_level = None
        layouts = {}  # pipette -> (active channels, primary nozzle)
        loads = list(self.loads)
        for index, entry in enumerate(self.log + [{"payload": {}, "level": 0}]):
            while loads and loads[0][0] <= index:
                _, key, liquid, ul = loads.pop(0)
                add(self.wells.setdefault(key, {}), liquid, ul)
            payload, level = entry["payload"], entry["level"]
            text = payload.get("text", "")
            if text.startswith(NOZZLES):
                _, rest = text.split(NOZZLES + " ", 1)
                name, active, primary = rest.rsplit(" ", 2)
                layouts[name] = (int(active), primary)
                continue
            if mixing_level is not None and level > mixing_level:
                continue  # a mix's aspirates and dispenses move nothing in the end
            mixing_level = None
            instrument = payload.get("instrument")
            if instrument is None:
                continue
            self.commands += 1
            name = str(instrument)
            channels, primary = layouts.get(name, (instrument.channels, "A1"))
            back_primary = primary[0] == "A"
            well = self.well_of(payload.get("location"))
            if text.startswith("Mixing"):
                mixing_level = level
            elif text.startswith("Picking up tip"):
                keys = [(id(w.parent), w.well_name) if w is not None else None
                        for w in self.channel_wells(well, channels, back_primary)]
                picked[name] = keys
                tips[name] = [parked.pop(key, {}) for key in keys]
            elif text.startswith("Dropping tip"):
                if well is not None:  # returned to its rack: kept for a later pick-up
                    for key, composition in zip(picked.get(name, []), tips.get(name, [])):
                        parked[key] = composition
                tips[name] = [{} for _ in range(channels)]
            elif text.startswith("Aspirating"):
                volume = float(payload["volume"])
                for i, target in enumerate(self.channel_wells(well, channels, back_primary)):
                    if target is None:
                        continue
                    key = (id(target.parent), target.well_name)
                    if key in self.sources and not self.is_plate(target):
                        add(tips[name][i], self.sources[key], volume)
                    else:
                        for liquid, ul in take(self.wells.setdefault(key, {}), volume).items():
                            add(tips[name][i], liquid, ul)
            elif text.startswith("Dispensing"):
                volume = float(payload["volume"])
                targets = self.channel_wells(well, channels, back_primary) if well is not None else [None] * channels
                for i, target in enumerate(targets):
                    given = take(tips[name][i], volume)
                    if target is None:
                        if well is not None:
                            self.off_labware += volume
                        continue
                    key = (id(target.parent), target.well_name)
                    for liquid, ul in given.items():
                        add(self.wells.setdefault(key, {}), liquid, ul)
                    if self.is_plate(target):
                        self.received[target.well_name] = self.received.get(target.well_name, 0.0) + volume

    def is_plate(self, well):
        if "Sample plate" not in str(well.parent):
            return False
        self.plate_id = id(well.parent)
        return True


def bf1_received(stream_path, stride):
    """µL the BioForge-1 stream dispenses into each plate well (slot 1)."""
    received = {}
    with open(stream_path) as stream:
        for line in stream:
            if not line.strip() or line.startswith("#"):
                continue
            command = json.loads(line)
            if command["module"] != "LH" or command["op"] != "Dispense":
                continue
            args = command["args"]
            if str(args.get("slot")) != "1":
                continue
            for channel, bit in enumerate(args["mask"]):
                if bit == "1":
                    well = "{}{}".format(ROWS[args["row"] - 1], args["col"] + channel * stride)
                    received[well] = received.get(well, 0.0) + args["volume_ul"]
    return received


def compare(simulate, labware, protocol, state_path, stream_path, stride=1):
    """Runs one protocol and compares it with the BioForge-1 run; returns the
    report's lines and how many wells differ."""
    published[0] = 0  # the run log of this protocol starts empty
    run = OpentronsRun(simulate, labware, protocol)
    with open(state_path) as state_file:
        state = json.load(state_file)
    bf1_wells = {well: {liquid: float(ul) for liquid, ul in holds.items()}
                 for well, holds in state["wells"].items()}
    received = bf1_received(stream_path, stride)
    plate = {}
    for (parent, well_name), composition in run.wells.items():
        if parent == run.plate_id:
            plate[well_name] = composition
    lines = []
    differ = 0
    names = sorted(set(bf1_wells) | set(plate) | set(received) | set(run.received),
                   key=lambda w: (int(w[1:]), w[0]))
    for well in names:
        ours = {k: v for k, v in bf1_wells.get(well, {}).items() if v > TOLERANCE_UL}
        theirs = {k: v for k, v in plate.get(well, {}).items() if v > TOLERANCE_UL}
        liquids = set(ours) | set(theirs)
        contents_differ = any(abs(ours.get(l, 0) - theirs.get(l, 0)) > TOLERANCE_UL for l in liquids)
        received_differ = abs(received.get(well, 0) - run.received.get(well, 0)) > TOLERANCE_UL
        if contents_differ or received_differ:
            differ += 1
            lines.append("well {}: BioForge-1 holds {} (dispensed {:g} uL), Opentrons holds {} (dispensed {:g} uL)".format(
                well, json.dumps(ours, sort_keys=True), received.get(well, 0),
                json.dumps(theirs, sort_keys=True), run.received.get(well, 0)))
    total = sum(run.received.values())
    lines.append("opentrons simulated {} pipette commands; {:g} uL dispensed into {} wells".format(
        run.commands, total, len(run.received)))
    if run.off_labware > TOLERANCE_UL:
        differ += 1
        lines.append("{:g} uL dispensed by nozzles beyond the labware's wells".format(run.off_labware))
    lines.append("{} wells differ of {} compared".format(differ, len(names)))
    return lines, differ, len(names)


def main():
    protocol, state_path, stream_path = sys.argv[1:4]
    # BioForge-1's channels are 9 mm apart: every column on a 96-well
    # plate, every other one on a 384-well plate (bioforge1.md section 2).
    stride = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    simulate, labware = import_opentrons()
    lines, _, _ = compare(simulate, labware, protocol, state_path, stream_path, stride)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
