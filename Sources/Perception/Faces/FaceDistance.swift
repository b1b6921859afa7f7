import AssistCore

extension FaceDetector {
    /// Faces found on people's heads are said as far away as their people. A face's own distance
    /// comes from the face box's size against an estimated face size (object-sizes.json), a far
    /// weaker cue than a whole person's box, their contact with the ground or a depth map: in
    /// zidane.jpg it put the faces at 1.2 and 1.4 m on people said to be 3.1 and 3.3 m away, and
    /// "Person, 3 meters. Face, 1 meter." about one man is a contradiction the user cannot resolve.
    /// The face keeps its own direction (it is where the face is) and its own distance only where
    /// it sits on no person, or its person's distance is unknown.
    public static func atTheirPeoplesDistance(_ faces: [LocatedObject], people: [LocatedObject]) -> [LocatedObject] {
        faces.map { face in
            let box = face.detection.box
            let centreX = Double(box.centerX), centreY = Double(box.y0 + box.y1) / 2
            let wearers = people.filter { person in
                let p = person.detection.box
                return person.distance.meters != nil && centreX >= Double(p.x0) && centreX <= Double(p.x1)
                    && centreY >= Double(p.y0) && centreY <= Double(p.y1)
            }
            // Where boxes overlap, the person whose box the face tops most squarely (as `detect(in:people:)` assigns them).
            func misfit(_ person: LocatedObject) -> Double {
                let p = person.detection.box
                return abs(centreX - Double(p.centerX)) / Double(max(1, p.width)) + abs(Double(box.y0 - p.y0)) / Double(max(1, p.height))
            }
            guard let wearer = wearers.min(by: { misfit($0) < misfit($1) }) else { return face }
            return LocatedObject(detection: face.detection, direction: face.direction, distance: wearer.distance)
        }
    }
}
