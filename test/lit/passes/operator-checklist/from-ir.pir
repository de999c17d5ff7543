// operator-checklist on its own, from IR text (only device ops: the input
// shows that route-transport ran): the set-up checklist becomes a prompt
// before the first robot command. With --source the MANUAL statements are
// quoted from the script as written (bradford.plate lines 12 and 13);
// without it they are named by op.
// RUN: %plate opt %s --passes=operator-checklist --source=%examples/bradford.plate | FileCheck %s --check-prefixes=CHECK,SOURCE
// RUN: %plate opt %s --passes=operator-checklist | FileCheck %s --check-prefixes=CHECK,NOSOURCE
module "Bradford total protein, FBS batches" platform=bioforge1 plate=plate96 wells=8x12 capacity=350
  liquid %B0 blank wells=A1..A3 pipetted
  liquid %bradford reagent declared=25000 µL pipetted
  load (1,1) %bradford 7.1 mL
  load (1,2) %B0 0.6 mL
  tips 3 racks 1
  manual.equilibrate A1..A3 to 22 °C for 1800 s  loc=12:1
  manual.prepare %bradford from "Coomassie reagent, ready to use"  loc=13:1
  dev.pick_tips rack (1,1) mask=1110  loc=16:4 step=1
  dev.aspirate slot 5 (1,2) mask=1110 10 µL of %B0  loc=16:4 step=1
  dev.lid LH remove slot 1  loc=16:4 step=1
  dev.dispense slot 1 (1,1) mask=1110 10 µL  loc=16:4 step=1
  dev.drop_tips mask=1110  loc=16:4 step=1
// CHECK:         tips 3 racks 1
// CHECK-NEXT:    dev.prompt "before the robot starts (MANUAL from line 12): set up, then confirm\nmanual steps:\n
// SOURCE-SAME:   [ ] equilibrate all to RT for 30 min\n  [ ] prepare bradford from \"Coomassie reagent, ready to use\"\n
// NOSOURCE-SAME: [ ] equilibrate\n  [ ] prepare\n
// CHECK-SAME:    reservoir on slot 5 (reservoir), as the loading plan says:\n  [ ] (1,1) bradford 7.1 mL\n  [ ] (1,2) B0 0.6 mL\n
// CHECK-SAME:    [ ] plate96 plate on slot 1 (sample plate), lid on\n
// CHECK-SAME:    confirm when all of the above is done"  loc=12:1
// CHECK-NEXT:    manual.equilibrate A1..A3 to 22 °C for 1800 s  loc=12:1
// CHECK-NEXT:    manual.prepare %bradford from "Coomassie reagent, ready to use"  loc=13:1
// CHECK-NEXT:    dev.pick_tips rack (1,1) mask=1110  loc=16:4 step=1
