// normalize-units on its own, from IR text: volumes, times, temperatures
// and speeds to µL, s, °C and rpm; RT and overnight from the platform
// (W001); concentrations keep the unit they were written in.
// RUN: %plate opt %s --passes=normalize-units 2>&1 | FileCheck %s
module "units" platform=bioforge1 plate=plate96 wells=8x12 capacity=350
  liquid %S1 calibrant wells=A1..A2 conc=5 µg/mL pipetted
  liquid %buffer reagent declared=0.05 L pipetted
  manual.equilibrate A1..A2 to RT for 30 min  loc=13:1
  dispense 0.1 mL of %buffer->A1..A2 mix=3x50000 nL tips=per_source  loc=16:4 step=1
  incubate 1.5 h at RT shaking=300 rpm lid=on  loc=17:4 step=2
  incubate overnight at 4 °C lid=on  loc=18:4 step=3
  wash 2x 0.3 mL of %buffer wells=A1..A2 soak=0.5 min tips=per_well  loc=19:4 step=4
// CHECK: <script>:18:4: warning: `overnight` is taken as 16 h; write the time if the protocol means another [W001]
// CHECK: liquid %S1 calibrant wells=A1..A2 conc=5 µg/mL pipetted
// CHECK-NEXT: liquid %buffer reagent declared=50000 µL pipetted
// CHECK-NEXT: manual.equilibrate A1..A2 to 22 °C for 1800 s  loc=13:1
// CHECK-NEXT: dispense 100 µL of %buffer->A1..A2 mix=3x50 µL tips=per_source  loc=16:4 step=1
// CHECK-NEXT: incubate 5400 s at 22 °C shaking=300 rpm lid=on  loc=17:4 step=2
// CHECK-NEXT: incubate 57600 s at 4 °C lid=on  loc=18:4 step=3
// CHECK-NEXT: wash 2x 300 µL of %buffer wells=A1..A2 soak=30 s tips=per_well  loc=19:4 step=4
