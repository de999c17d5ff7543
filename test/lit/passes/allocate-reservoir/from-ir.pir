// allocate-reservoir on its own, from IR text: each liquid the instrument
// pipettes gets a reservoir position (a fixed `at=` is kept) and the
// loading plan says how much to load: the need plus dead volume, rounded
// up to 0.1 mL (S1: 2 x 50 µL + 0.5 mL dead = 0.6 mL), or what the script
// declares (tmb: 10 mL), as much as a position holds (buffer: 50 mL
// declared, 25 mL fit; its need is 9.6 mL); a liquid nothing pipettes gets
// no position.
// RUN: %plate opt %s --passes=allocate-reservoir | FileCheck %s
module "reservoir" platform=bioforge1 plate=plate96 wells=8x12 capacity=350
  liquid %S1 calibrant wells=A1..B1 conc=5 µg/mL pipetted
  liquid %buffer reagent declared=50000 µL pipetted
  liquid %tmb reagent declared=10000 µL at=(2,3) pipetted
  liquid %unused reagent declared=1000 µL
  dispense 50 µL of %S1->A1..B1 tips=new  loc=16:4 step=1
  dispense 100 µL of %buffer->A1..H12 tips=per_source  loc=17:4 step=2
  dispense 100 µL of %tmb->A1..B1 tips=per_source  loc=18:4 step=3
// CHECK:      liquid %unused reagent declared=1000 µL
// CHECK-NEXT: load (1,1) %buffer 25 mL
// CHECK-NEXT: load (1,2) %S1 0.6 mL
// CHECK-NEXT: load (2,3) %tmb 10 mL
// CHECK-NEXT: dispense 50 µL of %S1->A1..B1
