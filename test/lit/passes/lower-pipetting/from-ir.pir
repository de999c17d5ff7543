// lower-pipetting on its own, from IR text (the loading plan shows that
// allocate-reservoir and the passes before it ran): a grouped dispense
// becomes tip pick-up, aspirate from its reservoir position, dispense per
// head position and tip drop; the module gets its tip count.
// --tip-cost 0: this test is about lowering from IR text, at the fastest (full-width) source sets; the default tip cost narrows small per_source steps (docs/schedule.md, "Tip cost").
// RUN: %plate opt %s --tip-cost 0 --passes=lower-pipetting | FileCheck %s --implicit-check-not=dispense
module "lowering" platform=bioforge1 plate=plate96 wells=8x12 capacity=350
  liquid %buffer reagent declared=10000 µL pipetted
  load (1,1) %buffer 1.3 mL
  dispense 100 µL of %buffer->A1..A8 tips=per_source blocks=[A1/1111,A5/1111]  loc=16:4 step=1
  incubate 600 s at 37 °C lid=on  loc=17:4 step=2
// CHECK:      load (1,1) %buffer 1.3 mL
// CHECK-NEXT: tips 4 racks 1
// CHECK-NEXT: dev.pick_tips rack (1,1) mask=1111  loc=16:4 step=1
// CHECK-NEXT: dev.aspirate slot 5 (1,1) mask=1111 200 µL of %buffer  loc=16:4 step=1
// CHECK-NEXT: dev.dispense slot 1 (1,1) mask=1111 100 µL  loc=16:4 step=1
// CHECK-NEXT: dev.dispense slot 1 (1,5) mask=1111 100 µL  loc=16:4 step=1
// CHECK-NEXT: dev.drop_tips mask=1111  loc=16:4 step=1
// CHECK-NEXT: incubate 600 s at 37 °C lid=on  loc=17:4 step=2
